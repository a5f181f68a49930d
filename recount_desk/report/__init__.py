"""The PDF reports (reportlab lives here only); built from ``core.report_model`` values."""
