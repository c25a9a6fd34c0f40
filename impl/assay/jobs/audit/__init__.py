"""assay audit: find the configuration behind a published score."""
