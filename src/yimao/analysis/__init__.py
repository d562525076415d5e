"""The rules of volume 6, one module per family; each is a pure function of a chart."""
