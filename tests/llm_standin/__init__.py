"""A scriptable local stand-in for the Gemini and OpenAI-compatible HTTP APIs (tests only)."""

from tests.llm_standin.server import RecordedRequest, StandIn

__all__ = ["RecordedRequest", "StandIn"]
