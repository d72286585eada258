# SPDX-License-Identifier: Apache-2.0
"""The binding's tests run against the device GMMU_DEVICE names (make
t-python starts a simulation server for them); tests that need no device
run without one."""
import os

import pytest

import gmmu


def pytest_collection_modifyitems(config, items):
    if os.environ.get("GMMU_DEVICE"):
        return
    skip = pytest.mark.skip(reason="no device: set GMMU_DEVICE (make t-python does)")
    for item in items:
        if "dev" in item.fixturenames:
            item.add_marker(skip)


@pytest.fixture
def dev():
    # Engine runs and aperture reads are slow in simulation on a busy machine.
    with gmmu.open(timeout_ms=120000) as d:
        yield d


@pytest.fixture(scope="session")
def space():
    """One address space for the session: DESTROY_AS takes close to a
    million device cycles (seconds of simulation), so the tests share one
    and each unmaps or frees what it mapped (FREE unmaps everywhere)."""
    with gmmu.open(timeout_ms=120000) as d:
        as_handle, _ = d.create_as()
    yield as_handle
    with gmmu.open(timeout_ms=120000) as d:
        d.destroy_as(as_handle)


@pytest.fixture
def allocs(dev):
    """Allocations made through allocs(size, flags), freed afterwards."""
    made = []

    def alloc(size, flags=gmmu.AllocFlag.CONTIGUOUS):
        rsp = dev.alloc(size, flags)
        made.append(rsp.handle)
        return rsp
    yield alloc
    for h in made:
        dev.free(h)
