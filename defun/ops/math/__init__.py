"""Math op tables: arithmetic, elementary functions, comparisons and logic, reductions, complex
numbers, special functions, segment reductions and clipping (exports.py gathers their surface)."""
