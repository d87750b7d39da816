"""Photo in, tile readings out: load -> detect -> classify -> layout -> consistent reading."""
