"""The composition root: settings → storage → browser pool → booking system → LLM layer
→ scenarios → scheduler → views."""
