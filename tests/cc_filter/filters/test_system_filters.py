"""diff, du, df, ps, curl, terraform, docker (lines from GNU diffutils 3.8, coreutils 9.1,
procps 4.0.2, curl 7.88.1, Terraform 1.11.4, the Docker 28.2 client's documented layouts)."""
import pytest

from cc_filter.filters.system.curl import Curl, meter_end
from cc_filter.filters.system.df import Df
from cc_filter.filters.files.diff import Diff
from cc_filter.filters.system.du import Du, size_of
from cc_filter.filters.system.ps import Ps
from cc_filter.filters.infra.docker import Docker
from cc_filter.filters.infra.terraform import Terraform


def run(cls, argv, text, exit_code=0):
    return list(cls(argv).run(text.split("\n"), exit_code))


def test_diff_keeps_every_line_but_header_timestamps():
    text = "--- a.ini\t2026-01-01 10:00:00.000000000 +0000\n+++ b.ini\t2026-01-01 10:00:00.000000000 +0000\n@@ -1 +1 @@\n---\tx\n-a\n+b\n\\ No newline at end of file"
    assert run(Diff, ["diff", "-u", "a.ini", "b.ini"], text, 1) == [
        "--- a.ini", "+++ b.ini", "@@ -1 +1 @@", "---\tx", "-a", "+b", "\\ No newline at end of file"]


@pytest.mark.parametrize("text, size", [("1.2M", 1.2 * 2 ** 20), ("4.0K", 4096), ("812", 812), ("x", None)])
def test_du_sizes(text, size):
    assert size_of(text) == size


def test_du_short_listing_is_unchanged_and_long_one_is_cut_to_the_largest():
    short = "4.0K\t./a\n8.0K\t."
    assert run(Du, ["du", "-h"], short) == short.split("\n")
    rows = [f"{i}K\t./d{i}" for i in range(1, 31)] + ["500K\t."]
    out = run(Du, ["du", "-h", "."], "\n".join(rows))
    assert out[0] == "largest 20 of 30 entries:"
    assert out[1] == "30K\t./d30" and "+10 smaller entries" in out and out[-1] == "500K\t."


def test_df_full_listing_drops_pseudo_filesystems():
    text = "Filesystem      Size  Used Avail Use% Mounted on\ntmpfs           24G     0   24G   0% /dev/shm\n/dev/vda       252G   24G   78G  24% /"
    assert run(Df, ["df", "-h"], text) == ["Filesystem Size Used Avail Use% Mounted-on",
                                           "/dev/vda 252G 24G 78G 24% /",
                                           "... (1 tmpfs/pseudo filesystem row omitted)"]
    assert "tmpfs 24G 0 24G 0% /dev/shm" in run(Df, ["df", "-h", "/dev/shm"], text)


def test_ps_rows_keep_every_column_and_cut_long_commands():
    text = "USER  PID %CPU COMMAND\nroot    1  0.0 " + "x" * 300
    out = run(Ps, ["ps", "aux"], text)
    assert out[0] == "USER PID %CPU COMMAND" and out[1].startswith("root 1 0.0 xxx")
    assert out[1].endswith("…") and len(out[1]) < 200


@pytest.mark.parametrize("line, end", [
    ("100    93  100    93    0     0   3630      0 --:--:-- --:--:-- --:--:--  3720", 78),
    ('{"progress": 100}', 0),
    ("  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0*   Trying", 0),
])
def test_curl_meter_rows(line, end):
    assert meter_end(line) == end


CURL_METER = "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n100    93  100    93    0     0   3630      0 --:--:-- --:--:-- --:--:--  3720"


def test_curl_body_stays_intact_and_meter_goes():
    body = '{"items": [1, 2],   "total":  2}'
    assert run(Curl, ["curl", "http://127.0.0.1/x"], CURL_METER + "\n" + body) == [
        body, "... (3 progress lines omitted)"]


def test_curl_download_to_a_file_says_what_was_received():
    assert run(Curl, ["curl", "-o", "x", "http://127.0.0.1/x"], CURL_METER) == [
        "received 93 of 93 (100%)", "... (3 progress lines omitted)"]


def test_curl_verbose_keeps_request_line_status_and_body():
    text = "* Connected to 127.0.0.1\n> GET /x HTTP/1.1\n> Host: 127.0.0.1\n>\n< HTTP/1.0 404 Not Found\n< Content-Length: 2\n<\n* starts like verbose\n* Closing connection 0"
    assert run(Curl, ["curl", "-v", "http://127.0.0.1/x"], text) == [
        "> GET /x HTTP/1.1", "< HTTP/1.0 404 Not Found", "< Content-Length: 2", "* starts like verbose",
        "... (5 verbose lines omitted)"]  # * Connected, > Host, >, <, * Closing


def test_terraform_plan_keeps_actions_changes_and_count():
    text = """terraform_data.web: Refreshing state... [id=c279]

  # terraform_data.web will be updated in-place
  ~ resource "terraform_data" "web" {
        id     = "c279"
      ~ input  = {
          ~ image    = "shop/web:1.4.0" -> "shop/web:1.5.0"
            name     = "web"
        }
      ~ output = {
          - name = "web"
        } -> (known after apply)
    }

Plan: 0 to add, 1 to change, 0 to destroy."""
    assert run(Terraform, ["terraform", "plan"], text) == [
        "terraform_data.web will be updated in-place",
        '  ~ input.image = "shop/web:1.4.0" -> "shop/web:1.5.0"',
        "Plan: 0 to add, 1 to change, 0 to destroy.",
        "... (1 refresh/reading line omitted)", "... (9 attribute lines omitted)"]


def test_terraform_error_box_text_is_kept():
    text = "╷\n│ Error: Unsupported argument\n│ \n│   on main.tf line 3:\n╵"
    assert run(Terraform, ["terraform", "validate"], text, 1) == ["Error: Unsupported argument",
                                                                   "on main.tf line 3:"]


def test_docker_pull_layer_progress_goes_counted_and_the_result_stays():
    text = """3.20: Pulling from library/alpine
a258b2a6b59a: Pulling fs layer
a258b2a6b59a: Download complete
a258b2a6b59a: Pull complete
Digest: sha256:0a4eaa0eecf5f8c050e5bba433f58c052be7587ee8af3e8b3910ef9ab5fbe9f5
Status: Downloaded newer image for alpine:3.20
"""
    assert run(Docker, ["docker", "pull", "alpine:3.20"], text) == [
        "3.20: Pulling from library/alpine",
        "Digest: sha256:0a4eaa0eecf5f8c050e5bba433f58c052be7587ee8af3e8b3910ef9ab5fbe9f5",
        "Status: Downloaded newer image for alpine:3.20",
        "... (3 layer progress lines omitted)"]


def test_docker_build_digest_cut_and_step_times_counted():
    digest = "2b0079146a74e23bf4ae8f6a28e1b484c6292f6fb904cbb51825b4a19812fcd8"
    text = f"""#4 [1/2] FROM python:3.12-slim@sha256:{digest}
#4 resolve python:3.12-slim@sha256:{digest} 0.0s done
#4 CACHED

#5 [2/2] RUN make
#5 0.412 cc -o app app.c
#5 DONE 0.5s"""
    assert run(Docker, ["docker", "build", "."], text) == [
        "#4 [1/2] FROM python:3.12-slim@sha256:2b0079146a74…", "#5 [2/2] RUN make",
        "#5 cc -o app app.c", "... (3 build progress lines omitted)",
        "... (1 image digest truncated)"]
