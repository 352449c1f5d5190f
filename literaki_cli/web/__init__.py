"""The analysis board's server side: the JSON API (:mod:`.api`, docs/serve.md)."""
