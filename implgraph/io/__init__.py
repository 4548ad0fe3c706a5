"""Reading and writing: data files (read once), bundled claims and tables, output, caches."""
