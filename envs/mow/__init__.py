"""Master of the World (MoW): masters, levels from experience, monsters, weapons and counter chains."""
