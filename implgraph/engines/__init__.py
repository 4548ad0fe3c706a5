"""Engines that decide edges: the refuter, the prover, check-edge and discover."""
