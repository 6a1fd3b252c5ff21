// SPDX-License-Identifier: GPL-3.0-or-later
import Playback
import UI

extension PlayerView.PlayerNeeds {
    /// Gives the player what its view measured (`PlayerView.measure`),
    /// before the view takes its frame: the views draw, the App sets.
    func apply() {
        player.setPicturesSeen(picturesSeen)
        if let outputSizing { player.setOutputSizing(outputSizing) }
        if redisplaysFrame { player.redisplayCurrentFrame() }
    }
}
