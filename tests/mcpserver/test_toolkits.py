"""The MCP view maps any job's declared tools and resources onto the SDK (issue 30): a
toy job's toolkit, served in-process to the SDK's own client, shows its arguments'
constraints and descriptions in the input schema, its answer as the output schema and its
hints as annotations; the caller reaches the tool, bad arguments never do, and a caller
who is not a user reads no resource."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field

from core.agent import READS, AgentResource, AgentTool, NoArguments, ToolCall, ToolHints, Toolkit
from core.errors import AgentError
from mcpserver import build_server


class Greeting(BaseModel):
    text: str
    user_id: int


class _Greet(BaseModel):
    name: str = Field(min_length=1, max_length=8, description="Whom to greet")
    loud: bool = False


class ToyJob:
    def __init__(self) -> None:
        self.calls: list[tuple[int, Any]] = []

    def toolkit(self) -> Toolkit:
        async def greet(call: ToolCall, args: _Greet) -> Greeting:
            self.calls.append((call.user_id, args))
            if args.name == "nobody":
                raise AgentError("nobody is not here", hint="greet somebody")
            text = f"hello {args.name}"
            return Greeting(text=text.upper() if args.loud else text, user_id=call.user_id)

        async def everyone(call: ToolCall, args: NoArguments) -> list[Greeting]:
            return [Greeting(text="hi all", user_id=call.user_id)]

        async def guests(user_id: int) -> str:
            return f'{{"host": {user_id}}}'

        return Toolkit(
            instructions="Greets people.",
            tools=[
                AgentTool(
                    name="greet", description="Greet one person.", arguments=_Greet,
                    answer=Greeting, call=greet, hints=ToolHints(idempotent=True),
                ),
                AgentTool(
                    name="greet_everyone", description="Greet all.", arguments=NoArguments,
                    answer=list[Greeting], call=everyone, hints=READS,
                ),
            ],
            resources=[
                AgentResource(uri="toy://guests", name="guests", description="Who came.",
                              read=guests),
            ],
        )  # fmt: skip


class FixedCaller:
    def __init__(self, user_id: int | None) -> None:
        self._user_id = user_id

    async def user_id(self) -> int:
        if self._user_id is None:
            raise AgentError("not authenticated")
        return self._user_id


async def test_a_declared_tool_is_served_with_its_schema_hints_and_caller() -> None:
    job = ToyJob()
    server = build_server([job.toolkit()], FixedCaller(42))
    async with Client(server) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) == {"greet", "greet_everyone"}
        greet = listed["greet"]
        assert greet.description == "Greet one person."
        assert greet.input_schema["required"] == ["name"]
        name = greet.input_schema["properties"]["name"]
        assert (name["minLength"], name["maxLength"], name["description"]) == (
            1,
            8,
            "Whom to greet",
        )
        assert greet.input_schema["properties"]["loud"]["default"] is False
        assert set(greet.output_schema["properties"]) == {"text", "user_id"}  # type: ignore[index]
        assert greet.annotations is not None and greet.annotations.idempotent_hint is True
        everyone = listed["greet_everyone"].annotations
        assert everyone is not None and everyone.read_only_hint is True

        done = await client.call_tool("greet", {"name": "ann", "loud": True})
        assert not done.is_error
        assert done.structured_content == {"text": "HELLO ANN", "user_id": 42}
        many = await client.call_tool("greet_everyone", {})
        assert many.structured_content == {"result": [{"text": "hi all", "user_id": 42}]}

        too_long = await client.call_tool("greet", {"name": "a" * 9})
        assert too_long.is_error
        refused = await client.call_tool("greet", {"name": "nobody"})
        assert refused.is_error and "nobody is not here" in str(refused.content)
    assert [(user, args.name) for user, args in job.calls] == [(42, "ann"), (42, "nobody")]


async def test_a_resource_is_read_for_the_caller_and_refused_to_a_stranger() -> None:
    async with Client(build_server([ToyJob().toolkit()], FixedCaller(7))) as client:
        read = await client.read_resource("toy://guests")
        assert read.contents[0].text == '{"host": 7}'  # type: ignore[union-attr]
    async with Client(build_server([ToyJob().toolkit()], FixedCaller(None))) as client:
        refused = await client.call_tool("greet", {"name": "ann"})
        assert refused.is_error and "not authenticated" in str(refused.content)
        with pytest.raises(MCPError, match="not authenticated"):
            await client.read_resource("toy://guests")
