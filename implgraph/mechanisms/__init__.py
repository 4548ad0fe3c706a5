"""Mechanisms as exact channels, their utility, and the bucketization construction."""
