"""Ruby filters: rspec, rubocop, bundle (one file per filter)."""
