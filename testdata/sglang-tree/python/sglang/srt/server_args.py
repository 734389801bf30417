import argparse
import dataclasses
from typing import Optional

from sglang.srt.arg_groups.arg_utils import NS, A, Arg
from sglang.srt.arg_groups.argparse_actions import (
    DeprecatedAction,
    DeprecatedAliasStoreAction,
    DeprecatedStoreTrueAction,
)


@dataclasses.dataclass
class ServerArgs:
    model_path: A[str, Arg(help="The model.", aliases=["--model"]), NS("model")]
    tp_size: A[int, "The tensor parallelism size.", NS("parallel")] = 1
    mem_fraction_static: A[
        Optional[float],
        "The fraction of the memory used for static allocation.",
        NS("memory"),
    ] = None
    cuda_graph_max_bs_decode: A[
        Optional[int], "The largest decode batch a CUDA graph captures.", NS("graph")
    ] = None
    cuda_graph_backend_decode: A[str, "The decode CUDA graph backend.", NS("graph")] = "full"
    cuda_graph_backend_prefill: A[str, "The prefill CUDA graph backend.", NS("graph")] = "full"
    disable_cuda_graph: A[bool, Arg(no_cli=True), NS("graph")] = False
    max_running_requests: A[
        Optional[int], Arg(help="Requests at once.", cli_name="--max-running-requests"), NS("sched")
    ] = None

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser, prefix: str = ""):
        parser.add_argument(
            "--cuda-graph-max-bs",
            type=int,
            action=DeprecatedAliasStoreAction,
            new_flag="--cuda-graph-max-bs-decode",
            dest="cuda_graph_max_bs_decode",
            help="Deprecated alias for --cuda-graph-max-bs-decode.",
        )
        parser.add_argument(
            "--disable-cuda-graph",
            action=DeprecatedStoreTrueAction,
            new_flag="--cuda-graph-backend-{decode,prefill}=disabled",
            help="Deprecated.",
        )
        parser.add_argument(
            "--enable-deepep-moe",
            action=DeprecatedAction,
            error_message="--enable-deepep-moe is no longer supported. Use --moe-a2a-backend deepep.",
        )
        parser.add_argument(
            "--moe-a2a-backend",
            type=str,
            choices=["none", "deepep"],
        )
        parser.add_argument(
            f"--{prefix}worker-startup-timeout-secs",
            type=int,
            default=600,
        )
