"""Reference room-booking portal: a standalone web app the booking scenario drives."""
