"""yimao — a 六爻 (纳甲筮法) calculator faithful to 《易冒》 volume 6."""

__version__ = "0.1.0"
