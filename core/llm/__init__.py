"""Answer providers: LLMs (Gemini, OpenAI-compatible) and the extractive answerer, and the fallback chain."""
