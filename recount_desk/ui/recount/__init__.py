"""The recount's panels (tally entry, differences, envelopes, board …) for its page."""
