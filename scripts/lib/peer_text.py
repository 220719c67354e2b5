"""A record's bytes as text, decoded as the peers' scripts decode them:
UTF-8 (a byte-order mark removed), else CP932, else EUC-JP, else CP932
with what it cannot read replaced."""


def decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp932", "euc-jp"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            pass
    return data.decode("cp932", errors="replace")
