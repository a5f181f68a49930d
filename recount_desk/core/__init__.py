"""Pure Python core of Recount Desk: the model and the Utah rules; no I/O, no third parties."""
