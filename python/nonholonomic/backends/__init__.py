"""FMU build backends."""
