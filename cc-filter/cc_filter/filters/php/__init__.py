"""PHP filters: phpunit, composer (one file per filter)."""
