"""An MCP client on the official Python SDK (the `mcp` package, pinned in requirements.txt).

Drives a schemac registry the way an agent does: initialize, tools/list, tools/call
get_json_schema (a registered reference and an unknown one), tools/call list_json_schemas,
resources/list, resources/read; over streamable HTTP also as a 2026-07-28 client does
(server/discover, then tools/call and resources/read without a session). Checks each tool
result's structuredContent against the tool's outputSchema (as the TypeScript SDK's client
does, on errors too) and records every warning the SDK logs (a session it could not end, ...).
Prints what the server answered as one JSON object on stdout, for the Rust test to check.

    python client.py http URL REFERENCE
    python client.py stdio REFERENCE COMMAND [ARG...]
"""

import asyncio
import importlib.metadata
import json
import logging
import sys

import jsonschema
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client


def text_blocks(result):
    return [block.text for block in result.content if getattr(block, "type", None) == "text"]


class Recorded(logging.Handler):
    """Every warning or error the SDK logs (a failed session end, a bad message, ...)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(f"{record.name}: {record.getMessage()}")


def output_schema_violations(tools, name, result):
    """What the TypeScript SDK's client checks and this one does not: a result's
    structuredContent against the tool's outputSchema, on an error result too."""
    schema = next((tool.output_schema for tool in tools.tools if tool.name == name), None)
    if schema is None or result.structured_content is None:
        return []
    validator = jsonschema.validators.validator_for(schema)(schema)
    return [f"{name}: {error.message}" for error in validator.iter_errors(result.structured_content)]


async def exercise(read, write, reference):
    async with ClientSession(read, write) as session:
        init = await session.initialize()
        tools = await session.list_tools()
        found = await session.call_tool("get_json_schema", {"reference": reference})
        missing = await session.call_tool("get_json_schema", {"reference": "no/such-schema"})
        listing = await session.call_tool("list_json_schemas", {})
        resources = await session.list_resources()
        contents = await session.read_resource("schema://" + reference)
        return {
            "sdk": importlib.metadata.version("mcp"),
            "initialize": {
                "protocolVersion": init.protocol_version,
                "serverInfo": {"name": init.server_info.name, "version": init.server_info.version},
                "capabilities": sorted(
                    name for name, value in init.capabilities.model_dump(exclude_none=True).items() if value is not None
                ),
            },
            "tools/list": [
                {"name": tool.name, "required": tool.input_schema.get("required", []), "hasOutputSchema": tool.output_schema is not None}
                for tool in tools.tools
            ],
            "tools/call get_json_schema": {
                "isError": bool(found.is_error),
                "content": text_blocks(found),
                "structuredContent": found.structured_content,
            },
            "tools/call get_json_schema (unknown)": {
                "isError": bool(missing.is_error),
                "content": text_blocks(missing),
                "structuredContent": missing.structured_content,
            },
            "outputSchemaViolations": [
                violation
                for name, result in [("get_json_schema", found), ("get_json_schema", missing), ("list_json_schemas", listing)]
                for violation in output_schema_violations(tools, name, result)
            ],
            "tools/call list_json_schemas": {"isError": bool(listing.is_error), "structuredContent": listing.structured_content},
            "resources/list": [
                {"uri": str(resource.uri), "name": resource.name, "mimeType": resource.mime_type} for resource in resources.resources
            ],
            "resources/read": [
                {"uri": str(item.uri), "mimeType": item.mime_type, "text": getattr(item, "text", None)} for item in contents.contents
            ],
        }


async def exercise_modern(read, write, reference):
    """The 2026-07-28 protocol: `server/discover`, then requests that stand alone."""
    async with ClientSession(read, write) as session:
        discovered = await session.discover()
        found = await session.call_tool("get_json_schema", {"reference": reference})
        contents = await session.read_resource("schema://" + reference)
        return {
            "supportedVersions": discovered.supported_versions,
            "tools/call get_json_schema": {"isError": bool(found.is_error), "content": text_blocks(found)},
            "resources/read": [getattr(item, "text", None) for item in contents.contents],
        }


async def main(argv):
    recorded = Recorded()
    logging.getLogger().addHandler(recorded)
    transport = argv[1]
    if transport == "http":
        url, reference = argv[2], argv[3]
        async with streamable_http_client(url) as (read, write):
            transcript = await exercise(read, write, reference)
        async with streamable_http_client(url) as (read, write):
            transcript["discover"] = await exercise_modern(read, write, reference)
    elif transport == "stdio":
        reference, command, args = argv[2], argv[3], argv[4:]
        async with stdio_client(StdioServerParameters(command=command, args=args)) as (read, write):
            transcript = await exercise(read, write, reference)
    else:
        raise SystemExit(f"unknown transport {transport!r}: http or stdio")
    transcript["logged"] = recorded.messages
    json.dump(transcript, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    asyncio.run(main(sys.argv))
