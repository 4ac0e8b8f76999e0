"""Storage: Beanie documents on MongoDB/SecantusDB and Redis; the only package importing them."""
