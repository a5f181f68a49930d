"""Pure Python core of Recount Desk: the model and the Utah rules. No I/O, no third-party imports."""
