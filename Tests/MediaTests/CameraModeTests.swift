// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import Media

/// The camera mode chosen without asking, on made-up mode lists as V4L2
/// reports them (every format × size × rate), and `--camera-format`.
@Suite struct CameraModeTests {
    static func mode(_ w: Int, _ h: Int, _ fps: Double, _ coding: CameraMode.Coding) -> CameraMode {
        CameraMode(width: w, height: h, fps: fps, coding: coding)
    }

    /// A typical USB 2 webcam: YUYV reaches 30 fps only at 640x480, MJPEG at 1080p.
    static let webcam: [CameraMode] = [
        mode(640, 480, 30, .yuyv), mode(640, 480, 15, .yuyv), mode(1280, 720, 10, .yuyv), mode(1920, 1080, 5, .yuyv),
        mode(640, 480, 30, .mjpeg), mode(1280, 720, 30, .mjpeg), mode(1920, 1080, 30, .mjpeg), mode(1920, 1080, 15, .mjpeg),
    ]

    @Test func mjpegWhenYUYVCannotReach30FPSAtTheLargestSize() {
        #expect(CameraMode.automatic(from: Self.webcam) == Self.mode(1920, 1080, 30, .mjpeg))
    }

    @Test func yuyvWhereItReachesTheSameSize() {
        let modes = [Self.mode(1280, 720, 30, .mjpeg), Self.mode(1280, 720, 30, .yuyv), Self.mode(640, 480, 60, .mjpeg)]
        #expect(CameraMode.automatic(from: modes) == Self.mode(1280, 720, 30, .yuyv))
    }

    @Test func nothingLargerThan1080p() {
        let modes = [Self.mode(3840, 2160, 30, .mjpeg), Self.mode(1920, 1080, 30, .mjpeg), Self.mode(2560, 1440, 30, .h264)]
        #expect(CameraMode.automatic(from: modes) == Self.mode(1920, 1080, 30, .mjpeg))
    }

    @Test func theSmoothestRateOfTheChosenSize() {
        let modes = [Self.mode(1280, 720, 30, .mjpeg), Self.mode(1280, 720, 60, .mjpeg), Self.mode(1280, 720, 120, .mjpeg)]
        #expect(CameraMode.automatic(from: modes) == Self.mode(1280, 720, 60, .mjpeg))
    }

    @Test func theFastestWhenNothingReaches30FPS() {
        let modes = [Self.mode(1920, 1080, 5, .yuyv), Self.mode(1280, 720, 10, .yuyv), Self.mode(640, 480, 15, .yuyv)]
        #expect(CameraMode.automatic(from: modes) == Self.mode(640, 480, 15, .yuyv))
    }

    @Test func ntscRatesCountAs30() {
        let modes = [Self.mode(1920, 1080, 29.97, .h264), Self.mode(1280, 720, 30, .yuyv)]
        #expect(CameraMode.automatic(from: modes) == Self.mode(1920, 1080, 29.97, .h264))
    }

    @Test func otherCodingsAndEmptyListsChooseNothing() {
        #expect(CameraMode.automatic(from: []) == nil)
        #expect(CameraMode.automatic(from: [Self.mode(1280, 720, 30, .other)]) == nil)
        #expect(CameraMode.automatic(from: [Self.mode(3840, 2160, 30, .mjpeg), Self.mode(2560, 1440, 30, .mjpeg)])
                == Self.mode(2560, 1440, 30, .mjpeg))
    }

    @Test func requestsReadAndMatch() throws {
        let yuyv = try #require(CameraModeRequest("1280x720@10:yuyv"))
        #expect(yuyv.match(in: Self.webcam) == Self.mode(1280, 720, 10, .yuyv))
        let any = try #require(CameraModeRequest("640x480@30"))
        #expect(any.match(in: Self.webcam) == Self.mode(640, 480, 30, .yuyv), "YUYV first when the coding is not given")
        #expect(CameraModeRequest("1920x1080@60")?.match(in: Self.webcam) == nil)
        for bad in ["", "1280x720", "1280x720@", "x720@30", "1280x720@30:vp8", "0x720@30", "99999x720@30", "1280x720@-1",
                    "1280x720@1e9", "1280x720@30:mjpeg:x", "1280X720@30:MJPEG?"] {
            #expect(CameraModeRequest(bad) == nil, "\(bad)")
        }
        #expect(CameraModeRequest("1280X720@30:MJPEG") == CameraModeRequest(width: 1280, height: 720, fps: 30, coding: .mjpeg))
    }

    @Test func theChosenModeIsAskedOfFFmpegsV4L2Input() {
        let options = Self.mode(1920, 1080, 30, .mjpeg).deviceOptions
        #expect(options.map { "\($0)=\($1)" } == ["video_size=1920x1080", "framerate=30", "input_format=mjpeg"])
    }

    @Test func liveDeviceLocationsRoundTrip() throws {
        let device = LiveDevice(format: "v4l2", url: "/dev/video0", options: [("video_size", "1280x720"), ("framerate", "30")])
        #expect(device.location == "av://v4l2:/dev/video0#video_size=1280x720,framerate=30")
        #expect(LiveDevice(location: device.location) == device)
        let graph = try #require(LiveDevice(userName: "lavfi:testsrc2=size=640x360:rate=30,realtime"))
        #expect(graph.format == "lavfi" && graph.url == "testsrc2=size=640x360:rate=30,realtime")
        #expect(MediaLocation(graph.location).device == graph)
        #expect(MediaLocation(graph.location).isNetwork == false)
        #expect(LiveDevice(userName: "movie.mp4") == nil)
        #expect(LiveDevice(location: "av://nocolon") == nil)
    }
}
