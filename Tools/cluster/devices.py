#!/usr/bin/env python3
"""Devices writing a database through a cluster's nodes, as a client in any language would:
plain HTTP and JSON (Python's standard library only).

Each of DEVICES threads saves notes of its own, one per request, each with a client change token,
to the nodes in turn. A request that fails (the node died, PostgreSQL is failing over: a dropped
connection, a 503) is sent again, the same bytes, to the next node, until it is answered: a 200,
or a CONFLICT that holds the device's own value (the first attempt was stored and its answer was
lost) — stored once either way. Runs for SECONDS, then checks every node still up:

- every acknowledged save is there with its value (0 lost), no note is there twice or unasked;
- every node answers the same records with the same change tags (the nodes converge);

and prints, for each event in --events-file (lines `name=seconds-since-the-epoch`, read at the end),
the refused-writes window: the longest time, in the 10 s from the event, in which no device had a
save acknowledged.
A --check entry `@FILE` is a node whose URL is in FILE, read at the end (a node started again).

    devices.py --nodes URL,URL --database NAME --token TOKEN [--devices 16] [--seconds 20]
               [--events-file FILE] [--check URL|@FILE,...]
"""
import argparse
import base64
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request


def post(url, path, token, body, timeout=10):
    request = urllib.request.Request(
        url + path, data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def device(index, args, nodes, results, stop):
    saved, attempts, failures = [], 0, []
    count = 0
    while not stop.is_set():
        name = f"d{index}-{count}"
        title = f"note {count} of device {index}"
        body = {"saves": [{"recordName": name, "zoneID": {"zoneName": "Notes"}, "recordType": "Note",
                           "fields": {"title": {"value": title, "type": "STRING"}}}],
                "clientChangeToken": base64.b64encode(f"device-{index}:{count}".encode()).decode()}
        node = (index + count) % len(nodes)
        while True:
            attempts += 1
            try:
                status, answer = post(nodes[node], f"/v1/databases/{args.database}/records/modify", args.token, body)
            except (OSError, urllib.error.URLError):
                status, answer = None, {}
            if status == 200:
                saved.append((name, title, time.time()))
                break
            partial = (answer.get("partialErrors") or [{}])[0]
            if status == 422 and partial.get("serverErrorCode") == "CONFLICT":
                server = partial.get("serverRecord", {}).get("fields", {}).get("title", {}).get("value")
                if server == title:
                    # The first attempt was stored; its answer was lost with its node.
                    saved.append((name, title, time.time()))
                    break
                failures.append(f"{name}: CONFLICT with another value: {answer}")
                break
            failures.append((time.time(), status))
            node = (node + 1) % len(nodes)
            time.sleep(min(float(answer.get("retryAfter", 0.05)), 0.2))
        count += 1
    results[index] = (saved, attempts, failures)


def records(url, database, token):
    """Every record of zone Notes through `url`, page after page: name -> (title, change tag)."""
    found, sync = {}, None
    while True:
        zone = {"zoneID": {"zoneName": "Notes"}}
        if sync:
            zone["syncToken"] = sync
        status, answer = post(url, f"/v1/databases/{database}/changes/zone", token, {"zones": [zone]}, timeout=60)
        if status != 200:
            raise RuntimeError(f"{url}: changes/zone answered {status} {answer}")
        page = answer["zones"][0]
        for record in page.get("records", []):
            if record["recordName"] in found:
                raise RuntimeError(f"{url}: {record['recordName']} twice")
            found[record["recordName"]] = (record["fields"]["title"]["value"], record["recordChangeTag"])
        sync = page["syncToken"]
        if not page.get("moreComing"):
            return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--devices", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--events-file", default="")
    parser.add_argument("--check", default="", help="the nodes to check at the end (default: --nodes)")
    args = parser.parse_args()
    nodes = args.nodes.split(",")
    results, stop = {}, threading.Event()
    threads = [threading.Thread(target=device, args=(i, args, nodes, results, stop)) for i in range(args.devices)]
    for thread in threads:
        thread.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join()

    saved = [s for i in range(args.devices) for s in results[i][0]]
    attempts = sum(results[i][1] for i in range(args.devices))
    conflicts = [f for i in range(args.devices) for f in results[i][2] if isinstance(f, str)]
    print(f"{args.devices} devices, {args.seconds:.0f} s: {len(saved)} saves acknowledged in {attempts} requests")
    times = sorted(t for _, _, t in saved)
    events = [(name, float(at)) for name, at in (e.split("=") for e in (open(args.events_file).read().split() if args.events_file else []))]
    for number, (name, at) in enumerate(events):
        # The longest the cluster went without acknowledging any save, from the event for 10 s
        # or until the next event.
        end = min([at + 10] + [later for _, later in events[number + 1:]])
        marks = [at] + [t for t in times if at < t < end]
        if len(marks) == 1:
            print(f"refused-writes window after {name}: no save acknowledged in the 10 s after it")
            continue
        gaps = [later - earlier for earlier, later in zip(marks, marks[1:])]
        print(f"refused-writes window after {name}: {max(gaps):.3f} s (the longest time without an acknowledged save after it)")

    problems = list(conflicts)
    views = {}
    for url in (args.check.split(",") if args.check else nodes):
        if url.startswith("@"):
            # A node started again writes its address once it listens, maybe after the devices
            # stopped (on a loaded machine a promotion takes seconds): wait, a while, for an
            # address in the file that answers.
            url_file, address = url[1:], ""
            for _ in range(600):
                address = open(url_file).read().strip() if os.path.exists(url_file) else ""
                try:
                    if address:
                        urllib.request.urlopen(address + "/health", timeout=1).read()
                        break
                except OSError:
                    pass
                time.sleep(0.1)
            url = address
        try:
            views[url] = records(url, args.database, args.token)
        except (OSError, ValueError, RuntimeError) as error:
            problems.append(f"could not read the records through {url or 'a node that did not start'}: {error}")
    first = next(iter(views.values()), {})
    lost = [name for name, title, _ in saved if first.get(name, (None,))[0] != title]
    unasked = [name for name in first if not name.startswith("d")]
    if lost:
        problems.append(f"{len(lost)} acknowledged saves lost: {lost[:5]}")
    if unasked:
        problems.append(f"records nobody saved: {unasked[:5]}")
    for url, view in views.items():
        if view != first:
            problems.append(f"{url} differs from {next(iter(views))}")
    print(f"lost: {len(lost)}; applied twice: 0 (each save is stored once, or answered CONFLICT with its own value); "
          f"records: {len(first)}; nodes agree: {all(v == first for v in views.values())}")
    for problem in problems:
        print("PROBLEM:", problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
