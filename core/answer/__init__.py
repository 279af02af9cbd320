"""Answer providers that need no LLM: the extractive answerer and its helpers."""
