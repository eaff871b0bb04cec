"""The fault-injection summary (paper 003) from `./hako bench faults`.

user/faultinject prints one "faults" record at the end of its run: the
faults injected by kind, how the driver processes ended (crashes, kills,
the watchdog's share), restarts, the drivers' requests and wild requests
as the kernel counted them (never the driver's own counters, which the
injected bit flips can hit), and the account of the frames the sender sent
through a driver process.
"""


def render(records) -> str:
    """The summary of the last "faults" record, or a line saying there is none."""
    runs = [r for r in records if r.get("kind") == "faults"]
    if not runs:
        return "no faults record (did faultinject run?)\n"
    r = runs[-1]
    get = lambda key: r.get(key, 0)  # noqa: E731 - a short local accessor
    lost = get("ok") - get("received")
    lines = [
        f"fault injection: {get('faults')} faults in {get('ms')} ms of guest time "
        f"(seed {get('seed')}), drivers as processes",
        f"  injected      text {get('text')}, data {get('data')}, wild requests {get('wild')}, "
        f"hangs {get('hang')}",
        f"  driver ends   {get('crashes')} crashes, {get('kills')} kills "
        f"({get('watchdog')} by the watchdog), {get('exits')} exits",
        f"  restarts      {get('restarts')} (given up: {get('gave_up')})",
        f"  requests      {get('requests')} driver requests, {get('refused')} refused "
        f"(the kernel's counts, none the driver's)",
        f"  wild requests {get('wild_events')} wild events ({get('wild_checked')} to a driver "
        f"with no bit flipped): {get('wild_requests')} requests, {get('wild_refused')} refused, "
        f"{get('wild_accepted')} accepted",
        f"  frames        sent {get('sent')} = ok {get('ok')} + refused {get('err')} + "
        f"epipe {get('epipe')} ({get('epipe_active')} taken by a driver that ended)",
        f"                reported sent {get('reported_done')}, unconfirmed at a driver's end "
        f"{get('unconfirmed')}, received {get('received')}, receiver drops {get('rx_drops')}; "
        f"accepted but not received {lost}",
        f"  kernel        alive; bystander {get('bystander')} loops; traffic "
        f"{'flowing' if get('flowing') else 'NOT flowing'} at the end; "
        f"{'all checks held' if get('ok_all') else 'A CHECK FAILED'}",
    ]
    return "\n".join(lines) + "\n"
