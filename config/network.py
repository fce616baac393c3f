"""This computer's network addresses, for serving the hall (no Django here: the settings import it).

`HOST=0.0.0.0 make run` allows exactly these (ALLOWED_HOSTS) and prints the first as the address for the other
laptops and the phones. They are read with ifaddr (the operating system's own interface list, on Windows, macOS and
Linux alike), the interface of the default route first; should that fail, from what the computer's name resolves
to. Nothing is sent anywhere, and no tool is run.
"""

import ipaddress
import socket

import ifaddr

LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

#: Documentation addresses (RFC 5737, RFC 3849): routed nowhere, so the route the system picks for them is the
#: default route, and the source address it picks is the default route's interface's.
ROUTE_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))


def is_loopback(host: str) -> bool:
    """True for 127.x, ::1 and localhost: only this computer can connect there."""
    host = host.strip().strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """0.0.0.0 or ::, every address of this computer."""
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_unspecified
    except ValueError:
        return False


def url_host(address: str) -> str:
    """An address as it stands in a URL and in the Host header: IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def local_addresses() -> list[str]:
    """This computer's addresses other machines can reach (no loopback, link-local or multicast), the ones
    of the interface that holds the default route first, IPv4 before IPv6."""
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        return _addresses_from_name()
    return ranked_addresses(adapters, default_route_sources())


def ranked_addresses(adapters, default_sources: set[str]) -> list[str]:
    """The useful addresses of `adapters` (ifaddr's), those of an adapter holding one of `default_sources` first,
    then IPv4 before IPv6; within a rank in the system's order."""
    ranked = []
    for adapter in adapters:
        addresses = [address for ip in adapter.ips if (address := _useful(_text(ip.ip))) is not None]
        on_default_route = any(str(address) in default_sources for address in addresses)
        ranked += [((not on_default_route, address.version), str(address)) for address in addresses]
    ranked.sort(key=lambda item: item[0])  # stable: the system's order within a rank
    return list(dict.fromkeys(address for _rank, address in ranked))


def default_route_sources() -> set[str]:
    """The source addresses the system would use for the default route, IPv4 and IPv6 (where there is one).

    `connect()` on a UDP socket sends no packet: it only asks the system to choose the route and the source
    address, which `getsockname()` then reads. Nothing is ever sent on these sockets."""
    sources = set()
    for family, probe in ROUTE_PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                sources.add(str(ipaddress.ip_address(udp.getsockname()[0].split("%")[0])))
        except (OSError, ValueError):  # no such route (or no IPv6 at all)
            continue
    return sources


def _text(ip) -> str:
    """ifaddr gives IPv4 as a string, IPv6 as (address, flow info, scope id)."""
    return ip[0] if isinstance(ip, tuple) else ip


def _useful(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None
    if address.is_loopback or address.is_link_local or address.is_multicast or address.is_unspecified:
        return None
    return address


def _addresses_from_name() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        return []
    useful = [address for info in infos if (address := _useful(info[4][0])) is not None]
    return list(dict.fromkeys(str(address) for address in sorted(useful, key=lambda a: a.version)))


def host_names() -> list[str]:
    """This computer's name, and the name.local that phones resolve by multicast DNS where it runs."""
    name = socket.gethostname().split(".")[0]
    return [name, f"{name}.local"] if name and name != "localhost" else []


def hall_allowed_hosts() -> list[str]:
    """ALLOWED_HOSTS in the hall: loopback, this computer's names and its addresses."""
    return list(dict.fromkeys([*LOOPBACK_HOSTS, *host_names(), *(url_host(a) for a in local_addresses())]))
