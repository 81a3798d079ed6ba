"""The ``vcfr`` command line (`solver.cli.main`): the solver layer's commands and ``vcfr demo``; the
game and abstraction layers register theirs from their own modules."""
