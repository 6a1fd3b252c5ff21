// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// The freedesktop thumbnail cache as others read and write it, for the
/// thumbnail tests: GLib's own `g_filename_to_uri` (through ctypes) for the
/// URI, hashlib's MD5 for the name, Pillow for the PNG and its tEXt
/// chunks (opening it checks every chunk's CRC). Debian's python3-pil
/// serves the system Python, hence /usr/bin/python3 rather than the first
/// python3 on the PATH.
package enum ThumbnailReader {
    package struct Entry: Decodable {
        package let uri: String
        package let name: String
        package let mtime: Int
        package let bytes: Int
        package let exists: Bool
        package let text: [String: String]?
        package let size: [Int]?
    }

    static let python = "/usr/bin/python3"

    private static let common = """
        import ctypes, hashlib, json, os, sys
        from PIL import Image, PngImagePlugin
        glib = ctypes.CDLL("libglib-2.0.so.0")
        glib.g_filename_to_uri.restype = ctypes.c_char_p
        glib.g_filename_to_uri.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
        media, entry = sys.argv[1], sys.argv[2]
        uri = glib.g_filename_to_uri(os.fsencode(os.path.abspath(media)), None, None).decode()
        name = hashlib.md5(uri.encode()).hexdigest() + ".png"
        path = os.path.join(entry, name) if os.path.isdir(entry) else entry
        info = os.stat(media)

        """

    /// What GLib, hashlib and Pillow make of `media`'s entry in `folder`
    /// (a size or fail folder; or the PNG itself when it is a file).
    package static func read(media: String, entry folder: String) throws -> Entry {
        let script = common + """
            out = {"uri": uri, "name": name, "mtime": int(info.st_mtime), "bytes": info.st_size, "exists": os.path.exists(path)}
            if out["exists"]:
                Image.open(path).verify()
                image = Image.open(path)
                image.load()
                out["text"] = dict(image.text)
                out["size"] = list(image.size)
            print(json.dumps(out))
            """
        let result = try runProcess(python, ["-c", script, media, folder], timeout: 30)
        guard result.status == 0 else { throw MediaError("the standard reader failed: \(result.stderr)") }
        return try JSONDecoder().decode(Entry.self, from: Data(result.stdout.utf8))
    }

    /// Writes an entry for `media` in `folder` as another program would: a
    /// `width` x `height` PNG of `colour` with Thumb::URI and Thumb::MTime
    /// (the file's, plus `mtimeOffset`), by Pillow, under GLib's name.
    package static func prefill(media: String, folder: String, colour: String, width: Int, height: Int,
                                mtimeOffset: Int) throws {
        let script = common + """
            os.makedirs(entry, mode=0o700, exist_ok=True)
            text = PngImagePlugin.PngInfo()
            text.add_text("Thumb::URI", uri)
            text.add_text("Thumb::MTime", str(int(info.st_mtime) + \(mtimeOffset)))
            text.add_text("Software", "a file manager")
            Image.new("RGB", (\(width), \(height)), "\(colour)").save(os.path.join(entry, name), pnginfo=text)
            """
        let result = try runProcess(python, ["-c", script, media, folder], timeout: 30)
        guard result.status == 0 else { throw MediaError("the standard writer failed: \(result.stderr)") }
    }
}
