"""Reports written from the warehouse (the season dashboard)."""
