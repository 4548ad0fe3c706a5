"""One checker module per claim kind; each returns a Verdict."""
