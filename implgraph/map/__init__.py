"""The implication map: graph from verdicts, composition, deduction, drawing."""
