"""Reference clients of the ``assay conform`` JSON-lines protocol (Python and JavaScript) and
deliberately broken implementations the runner must catch."""
