"""Tests of the LLM layer, with the real SDKs talking HTTP to fake vendor servers."""
