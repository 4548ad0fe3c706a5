"""The prover's arguments, one module each; every module here is imported by :mod:`implgraph.prover.registry`
(see its notes for how a module registers its handler and its certificate parts)."""
