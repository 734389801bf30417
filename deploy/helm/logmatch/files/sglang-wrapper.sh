set -uo pipefail
mkdir -p "$LOG_DIR"
fifos=$(mktemp -d)
out=$fifos/stdout err=$fifos/stderr
mkfifo "$out" "$err"
tee -a "$LOG_DIR/stdout.log" <"$out" & tee_out=$!
tee -a "$LOG_DIR/stderr.log" <"$err" >&2 & tee_err=$!
rotate() {
  while sleep "${LOG_ROTATE_SECONDS:-30}"; do
    for f in "$LOG_DIR/stdout.log" "$LOG_DIR/stderr.log"; do
      size=$(stat -c %s "$f" 2>/dev/null || echo 0)
      if [ "$size" -gt "$LOG_MAX_BYTES" ]; then
        cp -p "$f" "$f.1" && : >"$f"
      fi
    done
  done
}
# Detached from the container's streams, so a sleeping rotator never
# holds them open after sglang is gone.
rotate </dev/null >/dev/null 2>&1 & rotator=$!
# The trap is in place before sglang starts: a SIGTERM that came
# earlier is remembered and passed on, never lost.
server= stop=
trap 'stop=1; [ -n "$server" ] && kill -TERM "$server" 2>/dev/null' TERM INT
python3 -m sglang.launch_server \
  --model-path "$MODEL_PATH" \
  --host 0.0.0.0 --port "$SERVER_PORT" "$@" \
  >"$out" 2>"$err" &
server=$!
[ -n "$stop" ] && kill -TERM "$server" 2>/dev/null
# wait returns early when a trapped signal arrives; keep waiting
# until sglang itself has exited, then take its status.
while :; do
  wait "$server"; status=$?
  kill -0 "$server" 2>/dev/null || break
done
kill "$rotator" 2>/dev/null
wait "$tee_out" "$tee_err"
rm -rf "$fifos"
exit "$status"
