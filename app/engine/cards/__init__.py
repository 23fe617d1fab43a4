"""Card definitions, one module per set; importing a module registers its cards."""
