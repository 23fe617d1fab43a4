"""Parsers that turn the source documents into the data model (``model.py``)."""
