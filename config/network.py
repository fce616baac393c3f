"""This computer's network addresses, for serving the hall (no Django here: the settings import it).

`HOST=0.0.0.0 make run` allows exactly these (ALLOWED_HOSTS) and prints the first as the address for the other
laptops and the phones. They are read from iproute2 (`ip -j addr`, on every Debian and Ubuntu), the interface
of the default route first; without `ip`, from what the computer's name resolves to. Nothing is sent anywhere.
"""

import ipaddress
import json
import os
import shutil
import socket
import subprocess

LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]


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
    found = _addresses_from_ip()
    return found if found is not None else _addresses_from_name()


def _useful(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None
    if address.is_loopback or address.is_link_local or address.is_multicast or address.is_unspecified:
        return None
    return address


def _ip_json(*args: str) -> list:
    command = shutil.which("ip") or next((p for p in ("/usr/sbin/ip", "/sbin/ip") if os.path.exists(p)), None)
    if command is None:
        raise FileNotFoundError("ip")
    result = subprocess.run([command, "-j", *args], capture_output=True, text=True, timeout=5, check=True)
    return json.loads(result.stdout or "[]")


def _addresses_from_ip() -> list[str] | None:
    try:
        links = _ip_json("addr", "show", "up")
        routes = _ip_json("route", "show", "default") + _ip_json("-6", "route", "show", "default")
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    default_interfaces = {route.get("dev") for route in routes}
    ranked = []
    for link in links:
        for info in link.get("addr_info", []):
            address = _useful(info.get("local", ""))
            if address is not None:
                ranked.append(((link.get("ifname") not in default_interfaces, address.version), str(address)))
    ranked.sort(key=lambda item: item[0])  # stable: the kernel's order within a rank
    return list(dict.fromkeys(address for _rank, address in ranked))


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
