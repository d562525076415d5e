"""The stars (神煞) of volume 6: the catalogue (data/stars.toml) and their placement on charts."""
