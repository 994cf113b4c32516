"""The init refuses to run anything in a box that is meant to be offline but has a network.

Boxes are offline through the engine's ``NetworkDisabled``; the init checks what the engine made
(interfaces and routes, as the conformance suite does) rather than trusting it. No traffic is
sent anywhere.
"""

from __future__ import annotations

import asyncio

import pytest

from fastapi_env.dataset import load_keys
from fastapi_env.grading.host import grade
from fastapi_env.sandbox import Limits, SandboxError
from fastapi_env.sandbox.docker import DockerSandbox
from fastapi_env.sandbox.init import network_found
from fastapi_env.tasks import load_tasks

DEV_HEADER = ("Inter-|   Receive                            |  Transmit\n"
              " face |bytes    packets errs drop fifo frame compressed multicast|bytes\n")
LO = "    lo:       0       0    0    0    0     0          0         0        0\n"
ETH0 = "  eth0:    1296      16    0    0    0     0          0         0        0\n"
ROUTE_HEADER = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\n"
LO6 = "00000000000000000000000000000001 80 00000000000000000000000000000000 00 " \
      "00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo\n"


def fake_proc_net(tmp_path, dev, route="", ipv6_route=None):
    (tmp_path / "dev").write_text(DEV_HEADER + dev)
    (tmp_path / "route").write_text(ROUTE_HEADER + route)
    if ipv6_route is not None:
        (tmp_path / "ipv6_route").write_text(ipv6_route)
    return str(tmp_path)


def test_loopback_only_is_offline(tmp_path):
    assert network_found(fake_proc_net(tmp_path, LO, ipv6_route=LO6)) is None
    assert network_found(fake_proc_net(tmp_path, LO)) is None  # IPv6 off: no ipv6_route


@pytest.mark.parametrize("dev, route, ipv6_route, named", [
    (LO + ETH0, "", None, "eth0"),  # an interface
    (LO, "eth9\t00000000\t010011AC\t0003\t0\t0\t0\t00000000\n", None, "eth9"),  # a route
    (LO, "", LO6.replace("      lo\n", "    eth1\n"), "eth1"),  # an IPv6 route
])
def test_any_interface_or_route_off_loopback_is_a_network(tmp_path, dev, route, ipv6_route,
                                                           named):
    found = network_found(fake_proc_net(tmp_path, dev, route, ipv6_route))
    assert found is not None and named in found


def test_unreadable_network_state_is_not_taken_for_offline(tmp_path):
    assert "cannot tell" in network_found(str(tmp_path / "missing"))


class MisconfiguredBox(DockerSandbox):
    """A box the engine networks (a bridge) while its init is told it is offline: what a
    misbehaving engine would produce."""

    def __init__(self, **kwargs):
        super().__init__(limits=Limits(network=True), **kwargs)

    def _init_command(self, offline):
        return super()._init_command(offline=True)


@pytest.mark.docker
def test_a_networked_box_runs_nothing_and_grading_it_is_a_scoring_error():
    task = load_tasks()[0]

    async def body():
        async with MisconfiguredBox() as box:
            with pytest.raises(SandboxError, match="refused.*eth0"):
                await box.exec("echo hi")
            return await grade(box, task.probes, load_keys()[task.id])

    verdict = asyncio.run(body())
    assert verdict.reward == 0.0
    assert verdict.scoring_error and "eth0" in verdict.scoring_error
