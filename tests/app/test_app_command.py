"""``rummi app``: starts ``streamlit run app/main.py`` headless, without usage statistics."""

from __future__ import annotations

import os
import sys

import pytest

from app.cli import main
from app.commands import app as app_command


class Exec(Exception):
    """Stands in for os.execve, which would replace the test process."""


@pytest.fixture
def execs(monkeypatch):
    calls = []

    def fake_execve(path, cmd, env):
        calls.append((path, cmd, env, os.getcwd()))
        raise Exec

    monkeypatch.setattr(os, "execve", fake_execve)
    monkeypatch.chdir(os.getcwd())  # the command changes folder: put it back afterwards
    return calls


def test_runs_streamlit_with_sensible_flags(execs, tmp_path):
    with pytest.raises(Exec):
        main(["app", "--port", "8765", "--db", str(tmp_path / "x.db")])
    (path, cmd, env, cwd), = execs
    assert path == sys.executable and cwd == str(app_command.MAIN.parent.parent)
    assert cmd[:5] == [sys.executable, "-m", "app.serve", "run", str(app_command.MAIN)]
    flags = dict(zip(cmd[5::2], cmd[6::2]))
    assert flags["--server.headless"] == "true"
    assert flags["--server.port"] == "8765"
    assert flags["--browser.gatherUsageStats"] == "false"
    assert int(flags["--server.maxUploadSize"]) >= 20
    assert env["RUMMI_DB"] == str(tmp_path / "x.db")
    assert app_command.MAIN.exists() and (app_command.MAIN.parent.parent / "app").is_dir()


def test_default_port_and_address(execs):
    with pytest.raises(Exec):
        main(["app", "--address", "127.0.0.1"])
    cmd = execs[0][1]
    flags = dict(zip(cmd[5::2], cmd[6::2]))
    assert flags["--server.port"] == "8501" and flags["--server.address"] == "127.0.0.1"


def test_bad_port_is_bad_input(capsys):
    assert main(["app", "--port", "70000"]) == 2
    assert "--port must be 1-65535" in capsys.readouterr().err


def test_streamlit_accepts_the_flags():
    """Every --section.option the command passes is a real Streamlit option."""
    from streamlit import config

    options = config.get_config_options()
    cmd = app_command.streamlit_command(8501, "127.0.0.1")
    for flag, value in zip(cmd[5::2], cmd[6::2]):
        name = flag[2:]
        assert name in options, name
        assert value != ""
