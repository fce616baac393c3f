"""This computer's addresses for the hall (config/network.py): read with ifaddr on every system, never by running
a tool such as Linux's `ip`; the default route's interface found by the source address the system picks for a
documentation address, without sending anything.

The hall over a real network address, in a browser: tests/browser/test_hall.py.
"""

import ipaddress
import socket
import subprocess

import ifaddr
import pytest

from config import network


def adapter(name: str, *addresses: str) -> ifaddr.Adapter:
    ips = [ifaddr.IP((address, 0, 0) if ":" in address else address, 64 if ":" in address else 24, name)
           for address in addresses]
    return ifaddr.Adapter(name, name, ips)


#: a laptop on a Wi-Fi (default route), with a virtual machine's bridge listed first and the loopback
ADAPTERS = [
    adapter("lo", "127.0.0.1", "::1"),
    adapter("vmbr0", "fd00:aa::1", "10.10.0.1", "fe80::1"),
    adapter("wlan0", "fe80::2", "fd00:bb::7", "192.168.1.20", "169.254.3.4", "224.0.0.251"),
]


@pytest.fixture
def no_ip_tool(monkeypatch, tmp_path):
    """No `ip` on PATH, and no tool run at all (not /sbin/ip either): any subprocess fails the test."""
    monkeypatch.setenv("PATH", str(tmp_path))

    def refuse(*args, **kwargs):
        pytest.fail(f"a tool was run: {args}")

    for name in ("run", "Popen", "check_output", "call"):
        monkeypatch.setattr(subprocess, name, refuse)


def test_addresses_come_from_ifaddr_default_route_first_ipv4_before_ipv6(monkeypatch, no_ip_tool):
    monkeypatch.setattr(ifaddr, "get_adapters", lambda *args, **kwargs: ADAPTERS)
    monkeypatch.setattr(network, "default_route_sources", lambda: {"192.168.1.20"})
    # no loopback, link-local (fe80::, 169.254.x) or multicast; Wi-Fi (the default route) first
    assert network.local_addresses() == ["192.168.1.20", "fd00:bb::7", "10.10.0.1", "fd00:aa::1"]


def test_without_a_default_route_every_address_counts_ipv4_first(monkeypatch, no_ip_tool):
    """A network without a router (the hall's own switch; the browser test's namespace)."""
    monkeypatch.setattr(ifaddr, "get_adapters", lambda *args, **kwargs: ADAPTERS)
    monkeypatch.setattr(network, "default_route_sources", set)
    assert network.local_addresses() == ["10.10.0.1", "192.168.1.20", "fd00:aa::1", "fd00:bb::7"]


def test_an_ipv6_only_default_route_puts_its_interface_first(monkeypatch, no_ip_tool):
    monkeypatch.setattr(ifaddr, "get_adapters", lambda *args, **kwargs: ADAPTERS)
    monkeypatch.setattr(network, "default_route_sources", lambda: {"fd00:bb::7"})
    assert network.local_addresses()[:2] == ["192.168.1.20", "fd00:bb::7"]


class RecordingSocket:
    """A UDP socket that answers only connect() and getsockname(): sending anything would be an AttributeError."""

    calls: list = []
    sources = {socket.AF_INET: "192.168.1.20", socket.AF_INET6: None}

    def __init__(self, family, kind):
        assert kind == socket.SOCK_DGRAM
        self.family = family

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, target):
        self.calls.append((self.family, target))
        if self.sources[self.family] is None:
            raise OSError(101, "Network is unreachable")

    def getsockname(self):
        return (self.sources[self.family], 40000)


def test_the_default_route_is_found_by_a_udp_connect_that_sends_nothing(monkeypatch):
    RecordingSocket.calls = []
    monkeypatch.setattr(network.socket, "socket", RecordingSocket)
    assert network.default_route_sources() == {"192.168.1.20"}  # no IPv6 route: IPv4's alone
    targets = [target[0] for _family, target in RecordingSocket.calls]
    assert targets == ["192.0.2.1", "2001:db8::1"]
    assert all(ipaddress.ip_address(target) in ipaddress.ip_network(net)  # documentation addresses only
               for target, net in zip(targets, ["192.0.2.0/24", "2001:db8::/32"], strict=True))


def test_a_real_call_finds_this_computers_addresses_without_the_ip_tool(no_ip_tool):
    addresses = network.local_addresses()
    assert isinstance(addresses, list)
    for text in addresses:
        address = ipaddress.ip_address(text)
        assert not (address.is_loopback or address.is_link_local or address.is_multicast)
    real = {network._text(ip.ip) for each in ifaddr.get_adapters() for ip in each.ips}
    assert set(addresses) <= real
    assert network.default_route_sources() <= real


def test_the_hall_allows_loopback_its_names_and_its_addresses(monkeypatch, no_ip_tool):
    monkeypatch.setattr(ifaddr, "get_adapters", lambda *args, **kwargs: ADAPTERS)
    monkeypatch.setattr(network, "default_route_sources", lambda: {"192.168.1.20"})
    monkeypatch.setattr(network.socket, "gethostname", lambda: "clublaptop.fritz.box")
    assert network.hall_allowed_hosts() == ["127.0.0.1", "localhost", "[::1]", "clublaptop", "clublaptop.local",
                                            "192.168.1.20", "[fd00:bb::7]", "10.10.0.1", "[fd00:aa::1]"]
