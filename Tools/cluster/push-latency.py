#!/usr/bin/env python3
"""Push across nodes: how long after a save is acknowledged by one node a subscriber on another
node hears of it (Server-Sent Events), over COUNT saves, one at a time. Standard library only.

Subscribes on --to with a query subscription that fires on every created Note of zone Notes (so
each save is its own notification, named by its record), then saves through --from and times,
for each save, from its 200 to its notification's arrival. Prints p50, p99 and the largest.

    push-latency.py --from URL --to URL --database NAME --token TOKEN [--count 200]
"""
import argparse
import json
import threading
import time
import urllib.request


def call(url, path, token, body=None):
    request = urllib.request.Request(
        url + path, data=None if body is None else json.dumps(body).encode(), method="POST" if body is not None else "GET",
        headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    return urllib.request.urlopen(request, timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--from", dest="source", required=True)
    parser.add_argument("--to", dest="target", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--count", type=int, default=200)
    args = parser.parse_args()
    base = f"/v1/databases/{args.database}"
    try:
        call(args.source, base + "/zones/modify", args.token,
             {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Notes"}}}]}).read()
    except urllib.error.HTTPError:
        pass
    call(args.target, base + "/subscriptions/modify", args.token, {"operations": [{"operationType": "create", "subscription": {
        "subscriptionID": "push-latency", "subscriptionType": "query", "query": {"recordType": "Note"},
        "zoneID": {"zoneName": "Notes"}, "firesOn": ["create"]}}]}).read()

    arrived, lock, ready = {}, threading.Condition(), threading.Event()

    def listen():
        stream = call(args.target, base + "/subscriptions/push-latency/notifications", args.token)
        ready.set()
        for line in stream:
            if line.startswith(b"data:"):
                event = json.loads(line[5:])
                name = (event.get("recordID") or {}).get("recordName")
                with lock:
                    arrived[name] = time.monotonic()
                    lock.notify_all()

    threading.Thread(target=listen, daemon=True).start()
    ready.wait(10)
    run = int(time.time())
    latencies = []
    for index in range(args.count):
        name = f"push-{run}-{index}"
        call(args.source, base + "/records/modify", args.token, {"saves": [{"recordName": name, "zoneID": {"zoneName": "Notes"},
             "recordType": "Note", "fields": {"title": {"value": "pushed", "type": "STRING"}}}]}).read()
        acknowledged = time.monotonic()
        with lock:
            lock.wait_for(lambda: name in arrived, timeout=5)
            if name not in arrived:
                print(f"{name}: no notification within 5 s")
                continue
            latencies.append(max(0.0, arrived[name] - acknowledged))
    latencies.sort()
    if not latencies:
        raise SystemExit("no notification arrived")
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(f"push across nodes, {len(latencies)} saves: p50 {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, max {latencies[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
