"""The enginekb data model: engines, dimensions and claim records, loaded and validated."""
