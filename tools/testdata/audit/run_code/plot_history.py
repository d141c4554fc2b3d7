"""Draws the agent's validation history as a text chart in its log."""
import json
import sys


def bar(value, lowest, highest, width=40):
    if highest == lowest:
        return "#" * width
    filled = int(round((value - lowest) / (highest - lowest) * width))
    return "#" * filled + "." * (width - filled)


def main(path):
    with open(path) as handle:
        history = [json.loads(line) for line in handle if line.strip()]
    scores = [entry["score"] for entry in history]
    if not scores:
        print("no history yet")
        return 1
    lowest, highest = min(scores), max(scores)
    for step, entry in enumerate(history):
        marker = " best" if entry["score"] == highest else ""
        print(f"{step:3d} {entry['name'][:20]:20s} {bar(entry['score'], lowest, highest)}{marker}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "history.jsonl"))
