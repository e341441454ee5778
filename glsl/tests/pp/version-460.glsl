#version 460
