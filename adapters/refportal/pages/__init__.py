"""One page object per portal page; only these modules know labels and roles."""
