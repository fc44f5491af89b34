#!/usr/bin/env python3
"""A TCP proxy in front of a cluster's PostgreSQL: what HAProxy or a virtual IP is in production.

Listens on 127.0.0.1:LISTEN and forwards each new connection to 127.0.0.1:<the port in
TARGET_FILE>, read at every connection, so that `Tools/cluster/postgres promote` moves new
connections to the promoted standby by rewriting the file. Connections already open stay where
they are (to a dead primary they die with it, and the nodes' pools open new ones).

    proxy.py LISTEN TARGET_FILE
"""
import asyncio
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def handle(client_reader, client_writer, target_file):
    try:
        with open(target_file) as f:
            port = int(f.read().strip())
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", port)
    except (OSError, ValueError):
        client_writer.close()
        return
    await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))


async def main():
    listen, target_file = int(sys.argv[1]), sys.argv[2]
    server = await asyncio.start_server(lambda r, w: handle(r, w, target_file), "127.0.0.1", listen)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
