"""Card abstraction: hand features, suit isomorphism, clustering into per-street buckets, the bucket
tables in HDF5, and the one bucket lookup (with its documented fallback) the samplers and bots use."""
