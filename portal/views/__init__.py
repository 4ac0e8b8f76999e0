"""Route handlers: each module parses the request, calls the store or rules, renders."""
