#!/bin/sh
# The gateway image's entrypoint: writes the web app's run-time settings, then runs nginx in the
# foreground. The root filesystem may be read-only, so nginx always runs from a folder in /tmp that
# links the configuration (nginx.conf names its files relative to its own folder: tls/, mime.types,
# html) and holds what is made at start:
#
#   html/             a link to each file of the built app, plus app-config.json (proto's AppConfig)
#                     from WEB_API_URL, WEB_REALTIME_URL, WEB_SIGNAL_URL and GOOGLE_CLIENT_ID; unset
#                     or empty means the default (the app's own origin, no Google sign-in)
#   tls/              the certificate mounted at <conf>/tls (tls.crt, tls.key); when none is mounted, a
#                     self-signed one for localhost, FOR LOCAL USE ONLY (browsers warn), and it says so
#
# scripts/launcher/src/stack/gateway-process.ts lays out `npm run stack`'s nginx the same way. A setting that
# would not make valid JSON, or a URL that is not http(s), stops the start with a message naming it.
# Arguments go to nginx (`-t` tests the configuration and exits).
set -eu

conf_dir=${UIS_GATEWAY_CONF_DIR:-/etc/nginx}
run_dir=${UIS_GATEWAY_RUN_DIR:-/tmp/uis-gateway-conf}
cert="$conf_dir/tls/tls.crt"
key="$conf_dir/tls/tls.key"

say() { echo "gateway: $*" >&2; }

# ---- The web app's settings: AppConfig's fields and their variables (proto's APP_CONFIG_ENV). ----
# The values are URLs and a client id: rather than escape, refuse what JSON would need escaped.
app_config=
for setting in apiUrl:WEB_API_URL realtimeUrl:WEB_REALTIME_URL signalUrl:WEB_SIGNAL_URL \
  googleClientId:GOOGLE_CLIENT_ID; do
  field=${setting%%:*}
  variable=${setting#*:}
  eval "value=\${$variable:-}"
  case $value in
    *[\"\\]* | *[[:cntrl:]]*)
      say "$variable holds a double quote, backslash or control character (a newline, a tab...): set it to a plain URL or client id."
      exit 1
      ;;
  esac
  case $variable in
    WEB_*_URL)
      case $value in
        '' | http://?* | https://?*) ;;
        *)
          say "$variable is not an http:// or https:// URL: \"$value\". Leave it empty for the app's own origin."
          exit 1
          ;;
      esac
      ;;
  esac
  app_config="$app_config${app_config:+,}\"$field\":\"$value\""
done

# ---- The folder nginx runs from. ----
if [ -s "$cert" ] && [ -s "$key" ]; then
  self_signed=false
elif [ -e "$cert" ] || [ -e "$key" ]; then
  say "$conf_dir/tls holds only one of tls.crt and tls.key (or an empty one): mount both, or neither for a local self-signed certificate."
  exit 1
else
  self_signed=true
fi

rm -rf "$run_dir"
mkdir -p "$run_dir/html" || {
  say "cannot write $run_dir: give the container a writable /tmp (an emptyDir, tmpfs)."
  exit 1
}
for entry in "$conf_dir"/*; do
  case $(basename "$entry") in
    html) ;;
    tls) [ "$self_signed" = true ] || ln -s "$entry" "$run_dir/" ;;
    *) ln -s "$entry" "$run_dir/" ;;
  esac
done
for entry in "$conf_dir"/html/* "$conf_dir"/html/.[!.]*; do
  [ -e "$entry" ] || continue # an unmatched pattern
  [ "$(basename "$entry")" = app-config.json ] || ln -s "$entry" "$run_dir/html/"
done
printf '{%s}\n' "$app_config" >"$run_dir/html/app-config.json"

if [ "$self_signed" = true ]; then
  say "no certificate mounted at $conf_dir/tls (tls.crt, tls.key): making a self-signed one for localhost."
  say "FOR LOCAL USE ONLY: browsers will warn. Mount a real certificate, or terminate TLS in front of the gateway (README.md, Deploy)."
  mkdir -p "$run_dir/tls"
  openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 825 -subj /CN=localhost \
    -addext 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1' \
    -keyout "$run_dir/tls/tls.key" -out "$run_dir/tls/tls.crt" 2>/dev/null
fi

exec nginx -p "$run_dir/" -c "$run_dir/nginx.conf" -e stderr -g 'daemon off;' "$@"
